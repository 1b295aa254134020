// simbody_bench: the validation scenes of shared/spec/scenarios.md built with Simbody 3.7
// (Debian's libsimbody-dev), timed the same way as `ferrobody bench`.
//
//   simbody_bench <scene> [runs]     scene: s1 s2 s3 s6 s7_n10 s7_n100 s7_n1000
//
// Only ts.stepTo(finalTime) is timed (steady_clock); system, integrator and TimeStepper are set
// up outside the timed region, and every run starts from the same initial state. No reporters.
// stdout: one JSON line (same keys as `ferrobody bench`). stderr: final-state checks of the last
// run, to compare with scenarios.md and shared/reference/simbody37/.
//
// Build (see build.sh): no -DNDEBUG, because Debian built the library without it.
#include "Simbody.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace SimTK;

namespace {

// Ground half space (Simbody convention): solid is x > 0 of its frame; rotated -90 deg about Z
// it becomes y < 0 with surface y = 0.
const Transform kGroundFrame(Rotation(-Pi / 2, ZAxis));

struct Scene {
    MultibodySystem system;
    SimbodyMatterSubsystem matter{system};
    GeneralForceSubsystem forces{system};
    // Contact subsystem handles must outlive the system: HuntCrossleyForce and
    // CompliantContactSubsystem keep references to the handles they were given.
    std::unique_ptr<GeneralContactSubsystem> gcs;
    std::unique_ptr<ContactTrackerSubsystem> tracker;
    std::unique_ptr<CompliantContactSubsystem> ccs;
    std::vector<MobilizedBody> bodies;  // balls or links, in scenario order
    Real accuracy = 1e-6, finalTime = 2.0;
    State initial;
};

// "Ball" of scenarios.md: solid sphere, mass 1, inertia 0.4 m R^2, Free mobilizer from Ground.
Body::Rigid ballBody(Real r) { return Body::Rigid(MassProperties(1, Vec3(0), UnitInertia(0.4 * r * r))); }

// s1 / s2 / s3 initial state: at (0, 0.5, 0), v = (1, 0, 0), w = (0, 0, 5).
void throwBall(Scene& sc) {
    const MobilizedBody& b = sc.bodies[0];
    b.setQToFitTranslation(sc.initial, Vec3(0, 0.5, 0));
    b.setUToFitLinearVelocity(sc.initial, Vec3(1, 0, 0));
    b.setUToFitAngularVelocity(sc.initial, Vec3(0, 0, 5));
}

// s1: HuntCrossleyForce, one contact set {ground half space, ball sphere R = 0.1}.
void buildS1(Scene& sc) {
    sc.gcs.reset(new GeneralContactSubsystem(sc.system));
    GeneralContactSubsystem& contacts = *sc.gcs;
    ContactSetIndex set = contacts.createContactSet();
    MobilizedBody::Free ball(sc.matter.Ground(), Transform(), ballBody(0.1), Transform());
    sc.bodies.push_back(ball);
    contacts.addBody(set, sc.matter.Ground(), ContactGeometry::HalfSpace(), kGroundFrame);  // surface 0
    contacts.addBody(set, ball, ContactGeometry::Sphere(0.1), Transform());                 // surface 1
    HuntCrossleyForce hc(sc.forces, contacts, set);
    for (int s = 0; s < 2; ++s) hc.setBodyParameters(ContactSurfaceIndex(s), 1e6, 0.5, 0.8, 0.5, 0);
    hc.setTransitionVelocity(0.01);
    sc.initial = sc.system.realizeTopology();
    throwBall(sc);
    sc.accuracy = 1e-6; sc.finalTime = 2.0;
}

// s2 / s7 material: ContactMaterial(1e6, 0.5, 0.8, 0.5, 0).
ContactMaterial s1Material() { return ContactMaterial(1e6, 0.5, 0.8, 0.5, 0); }

// CompliantContactSubsystem + tracker with the ground half space (used by s2 and s7).
void addCompliantGround(Scene& sc) {
    sc.tracker.reset(new ContactTrackerSubsystem(sc.system));
    sc.ccs.reset(new CompliantContactSubsystem(sc.system, *sc.tracker));
    sc.ccs->setTransitionVelocity(0.01);
    sc.matter.Ground().updBody().addContactSurface(
        kGroundFrame, ContactSurface(ContactGeometry::HalfSpace(), s1Material()));
}

// s2: the s1 ball with CompliantContactSubsystem (Hertz circular + Stribeck friction).
void buildS2(Scene& sc) {
    addCompliantGround(sc);
    Body::Rigid body = ballBody(0.1);
    body.addContactSurface(Transform(), ContactSurface(ContactGeometry::Sphere(0.1), s1Material()));
    sc.bodies.push_back(MobilizedBody::Free(sc.matter.Ground(), Transform(), body, Transform()));
    sc.initial = sc.system.realizeTopology();
    throwBall(sc);
    sc.accuracy = 1e-6; sc.finalTime = 2.0;
}

// s3: SmoothSphereHalfSpaceForce, parameters in setParameters order.
void buildS3(Scene& sc) {
    MobilizedBody::Free ball(sc.matter.Ground(), Transform(), ballBody(0.1), Transform());
    sc.bodies.push_back(ball);
    SmoothSphereHalfSpaceForce f(sc.forces);
    f.setParameters(1e6, 0.5, 0.8, 0.5, 0, 0.01, 1e-5, 300, 50);
    f.setContactSphereBody(ball);
    f.setContactSphereLocationInBody(Vec3(0));
    f.setContactSphereRadius(0.1);
    f.setContactHalfSpaceBody(sc.matter.Ground());
    f.setContactHalfSpaceFrame(kGroundFrame);
    sc.initial = sc.system.realizeTopology();
    throwBall(sc);
    sc.accuracy = 1e-6; sc.finalTime = 2.0;
}

// s6: five Pin links about Z (rod 0..0.5 along +X), HuntCrossleyForce with the ground half space
// and a sphere r = 0.05 at the tip (0.5, 0, 0) of every link, all with the s1 material.
void buildS6(Scene& sc) {
    sc.gcs.reset(new GeneralContactSubsystem(sc.system));
    GeneralContactSubsystem& contacts = *sc.gcs;
    ContactSetIndex set = contacts.createContactSet();
    contacts.addBody(set, sc.matter.Ground(), ContactGeometry::HalfSpace(), kGroundFrame);  // surface 0
    const Vec3 com(0.25, 0, 0);
    // Central inertia diag(0, 1/48, 1/48), shifted to the body origin (inboard joint): diag(0, 1/12, 1/12).
    const Inertia central(Vec3(0, 1.0 / 48, 1.0 / 48));
    const Body::Rigid link(MassProperties(1, com, central.shiftFromMassCenter(-com, 1)));
    MobilizedBody parent = sc.matter.Ground();
    for (int i = 0; i < 5; ++i) {
        Vec3 inboard = i == 0 ? Vec3(0, 2, 0) : Vec3(0.5, 0, 0);
        MobilizedBody::Pin pin(parent, Transform(inboard), link, Transform());
        contacts.addBody(set, pin, ContactGeometry::Sphere(0.05), Transform(Vec3(0.5, 0, 0)));  // surface i+1
        sc.bodies.push_back(pin);
        parent = pin;
    }
    HuntCrossleyForce hc(sc.forces, contacts, set);
    for (int s = 0; s < 6; ++s) hc.setBodyParameters(ContactSurfaceIndex(s), 1e6, 0.5, 0.8, 0.5, 0);
    hc.setTransitionVelocity(0.01);
    sc.initial = sc.system.realizeTopology();  // q = u = 0: links horizontal, at rest
    sc.accuracy = 1e-5; sc.finalTime = 3.0;
}

// s7: N free balls r = 0.05 stacked in 3 layers on a square grid of columns, ball-ball contact on.
void buildS7(Scene& sc, int n) {
    addCompliantGround(sc);
    const Real r = 0.05;
    Body::Rigid body = ballBody(r);
    body.addContactSurface(Transform(), ContactSurface(ContactGeometry::Sphere(r), s1Material()));
    const int m = (int)std::ceil(std::sqrt((double)((n + 2) / 3)));  // ceil(sqrt(ceil(N/3)))
    std::vector<Vec3> pos;
    for (int j = 0; j < n; ++j) {
        int layer = j % 3, c = j / 3;
        pos.push_back(Vec3(0.2 * (c % m), 0.1 + 0.2 * layer, 0.2 * (c / m)));
        sc.bodies.push_back(MobilizedBody::Free(sc.matter.Ground(), Transform(), body, Transform()));
    }
    sc.initial = sc.system.realizeTopology();
    for (int j = 0; j < n; ++j) sc.bodies[j].setQToFitTranslation(sc.initial, pos[j]);  // at rest
    sc.accuracy = 1e-4; sc.finalTime = 1.0;
}

Real median(std::vector<Real> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <s1|s2|s3|s6|s7_n10|s7_n100|s7_n1000> [runs]\n", argv[0]);
        return 2;
    }
    const std::string id = argv[1];
    const int runs = argc > 2 ? std::atoi(argv[2]) : 1;
    if (runs < 1) { std::fprintf(stderr, "runs must be >= 1\n"); return 2; }

    Scene sc;
    Force::Gravity(sc.forces, sc.matter, Vec3(0, -9.81, 0));  // PE = m g y, zero at y = 0
    std::string name;  // the scene name ferrobody reports
    if (id == "s1") { buildS1(sc); name = "s1_hc_ball"; }
    else if (id == "s2") { buildS2(sc); name = "s2_ccs_ball"; }
    else if (id == "s3") { buildS3(sc); name = "s3_smooth_ball"; }
    else if (id == "s6") { buildS6(sc); name = "s6_chain_contact"; }
    else if (id.rfind("s7_n", 0) == 0) {
        int n = std::atoi(id.c_str() + 4);
        if (n < 1) { std::fprintf(stderr, "bad scene %s\n", id.c_str()); return 2; }
        buildS7(sc, n); name = "s7_many_balls_n" + std::to_string(n);
    } else { std::fprintf(stderr, "unknown scene %s\n", id.c_str()); return 2; }
    sc.system.realizeModel(sc.initial);

    std::vector<Real> walls;
    State last;
    int steps = 0, failed = 0, realizations = 0;
    for (int k = 0; k < runs; ++k) {
        // Fresh integrator/stepper each run (untimed) so statistics are per run.
        RungeKuttaMersonIntegrator integ(sc.system);
        integ.setAccuracy(sc.accuracy);
        TimeStepper ts(sc.system, integ);
        ts.initialize(sc.initial);
        auto t0 = std::chrono::steady_clock::now();
        ts.stepTo(sc.finalTime);
        auto t1 = std::chrono::steady_clock::now();
        walls.push_back(std::chrono::duration<double>(t1 - t0).count());
        steps = integ.getNumStepsTaken();
        failed = integ.getNumErrorTestFailures();
        realizations = integ.getNumRealizations();
        last = ts.getState();
    }

    std::printf("{\"scene\": \"%s\", \"runs\": %d, \"wall_median_s\": %.6g, \"wall_min_s\": %.6g, "
                "\"wall_max_s\": %.6g, \"steps_taken\": %d, \"steps_failed\": %d, \"realizations\": %d}\n",
                name.c_str(), runs, median(walls), *std::min_element(walls.begin(), walls.end()),
                *std::max_element(walls.begin(), walls.end()), steps, failed, realizations);

    // Checks (untimed): compare with scenarios.md / shared/reference/simbody37.
    sc.system.realize(last, Stage::Dynamics);
    const Real energy = sc.system.calcEnergy(last);
    std::fprintf(stderr, "check %s: t=%.6g steps_taken=%d steps_failed=%d energy=%.9g J", id.c_str(),
                 last.getTime(), steps, failed, energy);
    if (id == "s1" || id == "s2" || id == "s3") {
        const MobilizedBody& b = sc.bodies[0];
        Vec3 p = b.getBodyOriginLocation(last), v = b.getBodyOriginVelocity(last);
        Vec3 w = b.getBodyAngularVelocity(last);
        std::fprintf(stderr, " x=%.9g y=%.9g vx=%.9g wz=%.9g", p[0], p[1], v[0], w[2]);
    } else if (id.rfind("s7_n", 0) == 0) {
        Real sum = 0, lo = Infinity, hi = -Infinity;
        for (const MobilizedBody& b : sc.bodies) {
            Real y = b.getBodyOriginLocation(last)[1];
            sum += y; lo = std::min(lo, y); hi = std::max(hi, y);
        }
        std::fprintf(stderr, " mean_y=%.9g min_y=%.9g max_y=%.9g", sum / sc.bodies.size(), lo, hi);
    } else if (id == "s6") {
        std::fprintf(stderr, " q1=%.9g q5=%.9g", sc.bodies[0].getOneQ(last, 0), sc.bodies[4].getOneQ(last, 0));
    }
    std::fprintf(stderr, "\n");
    return 0;
}
