// Reference for issue 41 (contact sets with several contacts), made with Debian's Simbody 3.7
// (apt-get install libsimbody-dev): two balls in one contact set with the ground half space,
// ball a listed first, 1 mm deep and leaving the ground at 5 m/s; ball b resting 1 mm deep,
// 1 m away. Balls as scenarios.md's (R = 0.1 m, 1 kg, inertia 0.4 m R^2, Free mobilizers),
// material (1e6, 0.5, 0.8, 0.5, 0), transition velocity 0.01, gravity -9.81 y, RK-Merson at
// accuracy 1e-6 through a TimeStepper, stepTo(0.001).
//
// Prints one line per variant: model (ccs: CompliantContactSubsystem; hc: HuntCrossleyForce),
// whether ball a is in the set, then ball b's vertical speed after 1 ms (%.17g), the number of
// steps taken and b's height.
//
// Build and run: bash scripts/simbody37/make_two_ball_reference.sh
#include "Simbody.h"
#include <cstdio>
#include <memory>

using namespace SimTK;

namespace {

const Transform kGroundFrame(Rotation(-Pi / 2, ZAxis));
const Real R = 0.1;

Body::Rigid ballBody() { return Body::Rigid(MassProperties(1, Vec3(0), UnitInertia(0.4 * R * R))); }

void run(bool hc, bool withA) {
    MultibodySystem system;
    SimbodyMatterSubsystem matter(system);
    GeneralForceSubsystem forces(system);
    Force::UniformGravity gravity(forces, matter, Vec3(0, -9.81, 0));
    std::unique_ptr<GeneralContactSubsystem> gcs;
    std::unique_ptr<ContactTrackerSubsystem> tracker;
    std::unique_ptr<CompliantContactSubsystem> ccs;
    const ContactMaterial material(1e6, 0.5, 0.8, 0.5, 0);
    std::vector<MobilizedBody> balls;
    if (hc) {
        gcs.reset(new GeneralContactSubsystem(system));
        ContactSetIndex set = gcs->createContactSet();
        gcs->addBody(set, matter.Ground(), ContactGeometry::HalfSpace(), kGroundFrame);
        for (int k = withA ? 0 : 1; k < 2; ++k) {
            MobilizedBody::Free ball(matter.Ground(), Transform(), ballBody(), Transform());
            gcs->addBody(set, ball, ContactGeometry::Sphere(R), Transform());
            balls.push_back(ball);
        }
        HuntCrossleyForce force(forces, *gcs, set);
        for (int s = 0; s < (withA ? 3 : 2); ++s)
            force.setBodyParameters(ContactSurfaceIndex(s), 1e6, 0.5, 0.8, 0.5, 0);
        force.setTransitionVelocity(0.01);
    } else {
        tracker.reset(new ContactTrackerSubsystem(system));
        ccs.reset(new CompliantContactSubsystem(system, *tracker));
        ccs->setTransitionVelocity(0.01);
        matter.Ground().updBody().addContactSurface(
            kGroundFrame, ContactSurface(ContactGeometry::HalfSpace(), material));
        for (int k = withA ? 0 : 1; k < 2; ++k) {
            Body::Rigid body = ballBody();
            body.addContactSurface(Transform(), ContactSurface(ContactGeometry::Sphere(R), material));
            balls.push_back(MobilizedBody::Free(matter.Ground(), Transform(), body, Transform()));
        }
    }
    State state = system.realizeTopology();
    const MobilizedBody& b = balls.back();
    if (withA) {
        balls[0].setQToFitTranslation(state, Vec3(0, R - 1e-3, 0));
        balls[0].setUToFitLinearVelocity(state, Vec3(0, 5, 0));
    }
    b.setQToFitTranslation(state, Vec3(1, R - 1e-3, 0));
    RungeKuttaMersonIntegrator integ(system);
    integ.setAccuracy(1e-6);
    TimeStepper ts(system, integ);
    ts.initialize(state);
    ts.stepTo(0.001);
    const State& s = integ.getState();
    system.realize(s, Stage::Velocity);
    std::printf("%s %s %.17g %d %.17g\n", hc ? "hc" : "ccs", withA ? "with_a" : "without_a",
                b.getBodyOriginVelocity(s)[1], integ.getNumStepsTaken(),
                b.getBodyOriginLocation(s)[1]);
}

}  // namespace

int main() {
    for (bool hc : {false, true})
        for (bool withA : {true, false}) run(hc, withA);
}
