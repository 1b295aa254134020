// References for issue 41 (contact sets with several contacts), made with Debian's Simbody 3.7
// (apt-get install libsimbody-dev): several balls in ONE contact set with the ground half space,
// bouncing so that their contacts separate and reload at different times.
//
//   multi_ball_reference SCENE [ULPS]
//     SCENE: bounce_ccs   three balls (s1 material) in a CompliantContactSubsystem
//            bounce_hc    the same balls in one HuntCrossleyForce set
//            unequal_ccs  three balls of unequal materials (stiffness, dissipation, friction)
//            unequal_hc   the same in one HuntCrossleyForce set
//            collide_ccs  three balls that also hit each other (sphere–sphere contacts in the
//                         set: two rolling into each other, one falling onto another)
//            collide_hc   the same in one HuntCrossleyForce set
//     ULPS: moves ball 2's initial spin about y (about z in the collide scenes, where it has
//           no y spin) by that many ulps (Simbody's own one-ulp spread; a change of a height
//           is absorbed by the first step's rounding).
//
// Balls as scenarios.md's (1 kg, inertia 0.4 m R^2, Free mobilizers), listed in set order after
// the ground half space (rotated -90 deg about z: y < 0 is solid). Gravity -9.81 y, transition
// velocity 0.01, RK-Merson at accuracy 1e-6 through a TimeStepper, rows every 0.01 s for 1 s.
// stdout: CSV t, then per ball b<i>.x,y,z,qw,qx,qy,qz,wx,wy,wz,vx,vy,vz (%.17g); a last line
// "# steps N attempted M".
//
// Build and run: bash scripts/simbody37/make_multi_ball_references.sh
#include "Simbody.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace SimTK;

namespace {

const Transform kGroundFrame(Rotation(-Pi / 2, ZAxis));

struct Ball {
    Real radius;
    Vec3 p, v, w;
    Real stiffness, dissipation, mus, mud, muv;
};

// Three balls dropped from different heights with different speeds and spins: each bounces a
// few times, so the contacts separate and reload at different moments.
std::vector<Ball> balls(bool unequal, bool collide) {
    if (collide) {
        return {
            {0.1, Vec3(0, 0.1, 0), Vec3(2, 0, 0), Vec3(0, 0, -20), 1e6, 0.5, 0.8, 0.5, 0},
            {0.08, Vec3(0.6, 0.08, 0.02), Vec3(-1.5, 0, 0), Vec3(0, 2, 18.75), 2e6, 0.3, 0.9, 0.6, 0},
            {0.12, Vec3(0.75, 0.45, 0.03), Vec3(-1, 0, 0), Vec3(0, 0, 3), 5e5, 0.8, 0.7, 0.4, 0.05},
        };
    }
    std::vector<Ball> b = {
        {0.1, Vec3(0, 0.3, 0), Vec3(1, 0, 0), Vec3(0, 0, 5), 1e6, 0.5, 0.8, 0.5, 0},
        {0.08, Vec3(1, 0.2, 0.2), Vec3(-0.5, 1, 0), Vec3(2, 0, 0), 1e6, 0.5, 0.8, 0.5, 0},
        {0.12, Vec3(2, 0.45, -0.2), Vec3(0, -2, 0.5), Vec3(0, 3, 1), 1e6, 0.5, 0.8, 0.5, 0},
    };
    if (unequal) {
        b[0].stiffness = 2e6;  b[0].dissipation = 0.2; b[0].mus = 0.9; b[0].mud = 0.6; b[0].muv = 0.1;
        b[1].stiffness = 5e5;  b[1].dissipation = 1.0; b[1].mus = 0.5; b[1].mud = 0.3; b[1].muv = 0;
        b[2].stiffness = 3e6;  b[2].dissipation = 0.7; b[2].mus = 1.1; b[2].mud = 0.4; b[2].muv = 0.05;
    }
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) { std::fprintf(stderr, "usage: %s SCENE [ULPS]\n", argv[0]); return 2; }
    const std::string scene = argv[1];
    const int ulps = argc > 2 ? std::atoi(argv[2]) : 0;
    const bool hc = scene.size() > 3 && scene.substr(scene.size() - 3) == "_hc";
    const bool unequal = scene.rfind("unequal", 0) == 0;
    const bool collide = scene.rfind("collide", 0) == 0;
    const std::vector<Ball> spec = balls(unequal, collide);
    const ContactMaterial groundMat(1e6, 0.5, 0.8, 0.5, 0);

    MultibodySystem system;
    SimbodyMatterSubsystem matter(system);
    GeneralForceSubsystem forces(system);
    Force::UniformGravity gravity(forces, matter, Vec3(0, -9.81, 0));
    std::unique_ptr<GeneralContactSubsystem> gcs;
    std::unique_ptr<ContactTrackerSubsystem> tracker;
    std::unique_ptr<CompliantContactSubsystem> ccs;
    std::vector<MobilizedBody> mobods;
    auto body = [](const Ball& b) {
        return Body::Rigid(MassProperties(1, Vec3(0), UnitInertia(0.4 * b.radius * b.radius)));
    };
    if (hc) {
        gcs.reset(new GeneralContactSubsystem(system));
        ContactSetIndex set = gcs->createContactSet();
        gcs->addBody(set, matter.Ground(), ContactGeometry::HalfSpace(), kGroundFrame);
        for (const Ball& b : spec) {
            MobilizedBody::Free m(matter.Ground(), Transform(), body(b), Transform());
            gcs->addBody(set, m, ContactGeometry::Sphere(b.radius), Transform());
            mobods.push_back(m);
        }
        HuntCrossleyForce force(forces, *gcs, set);
        force.setBodyParameters(ContactSurfaceIndex(0), 1e6, 0.5, 0.8, 0.5, 0);
        for (int i = 0; i < (int)spec.size(); ++i) {
            const Ball& b = spec[i];
            force.setBodyParameters(ContactSurfaceIndex(i + 1), b.stiffness, b.dissipation, b.mus,
                                    b.mud, b.muv);
        }
        force.setTransitionVelocity(0.01);
    } else {
        tracker.reset(new ContactTrackerSubsystem(system));
        ccs.reset(new CompliantContactSubsystem(system, *tracker));
        ccs->setTransitionVelocity(0.01);
        matter.Ground().updBody().addContactSurface(
            kGroundFrame, ContactSurface(ContactGeometry::HalfSpace(), groundMat));
        for (const Ball& b : spec) {
            Body::Rigid r = body(b);
            r.addContactSurface(Transform(), ContactSurface(ContactGeometry::Sphere(b.radius),
                ContactMaterial(b.stiffness, b.dissipation, b.mus, b.mud, b.muv)));
            mobods.push_back(MobilizedBody::Free(matter.Ground(), Transform(), r, Transform()));
        }
    }
    State state = system.realizeTopology();
    for (int i = 0; i < (int)spec.size(); ++i) {
        Vec3 w = spec[i].w;
        const int axis = collide ? 2 : 1;  // a spin component that is not zero
        if (i == 2)
            for (int k = 0; k < std::abs(ulps); ++k) w[axis] = std::nextafter(w[axis], ulps > 0 ? 10.0 : -10.0);
        mobods[i].setQToFitTranslation(state, spec[i].p);
        mobods[i].setUToFitLinearVelocity(state, spec[i].v);
        mobods[i].setUToFitAngularVelocity(state, w);
    }
    RungeKuttaMersonIntegrator integ(system);
    integ.setAccuracy(1e-6);
    TimeStepper ts(system, integ);
    ts.initialize(state);
    std::printf("t");
    for (int i = 0; i < (int)spec.size(); ++i)
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz", "wx", "wy", "wz", "vx", "vy", "vz"})
            std::printf(",b%d.%s", i, c);
    std::printf("\n");
    for (int k = 0; k <= 100; ++k) {
        const Real t = k * 0.01;
        if (k > 0) ts.stepTo(t);
        const State& s = integ.getState();
        system.realize(s, Stage::Velocity);
        std::printf("%.17g", s.getTime());
        for (const MobilizedBody& m : mobods) {
            const Transform& X = m.getBodyTransform(s);
            const Quaternion q = X.R().convertRotationToQuaternion();
            const SpatialVec& V = m.getBodyVelocity(s);
            const Vec3 vals[] = {X.p(), Vec3(q[1], q[2], q[3]), V[0], V[1]};
            std::printf(",%.17g,%.17g,%.17g,%.17g", vals[0][0], vals[0][1], vals[0][2], q[0]);
            for (int j = 1; j < 4; ++j)
                std::printf(",%.17g,%.17g,%.17g", vals[j][0], vals[j][1], vals[j][2]);
        }
        std::printf("\n");
    }
    std::printf("# steps %d attempted %d\n", integ.getNumStepsTaken(), integ.getNumStepsAttempted());
}
