// Reference for examples/scenes/b1_brick_on_floor.toml (issue 20), made with Debian's Simbody 3.7
// (apt-get install libsimbody-dev): a brick (half lengths 0.1 x 0.05 x 0.2 m, 2 kg) on a Free
// mobilizer, thrown spinning onto the ground half space; CompliantContactSubsystem, so the
// brick/half-space pair goes to Simbody's BrickHalfSpacePenalty generator (linear springs at
// the vertices of the brick face most antiparallel to the floor, Hunt-Crossley dissipation,
// Stribeck friction). RK-Merson, accuracy 1e-6, rows every 0.01 s (TimeStepper, interpolated
// as Simbody does by default). Columns as the other Simbody references: t, x,y,z, qw,qx,qy,qz,
// wx,wy,wz, vx,vy,vz, ke, pe, energy.
//
// Build and run: bash scripts/simbody37/make_brick_reference.sh
// An optional argument moves the initial height by that much (m): Simbody's own round-off
// spread (docs/models/brick.md), e.g. `brick_reference 1e-15`.
#include "Simbody.h"
#include <cstdio>
#include <cstdlib>

using namespace SimTK;

int main(int argc, char** argv) {
    const Real dy = argc > 1 ? std::atof(argv[1]) : 0.0;
    MultibodySystem system;
    SimbodyMatterSubsystem matter(system);
    GeneralForceSubsystem forces(system);
    Force::UniformGravity gravity(forces, matter, Vec3(0, -9.81, 0));
    ContactTrackerSubsystem tracker(system);
    CompliantContactSubsystem contact(system, tracker);
    contact.setTransitionVelocity(0.01);

    const ContactMaterial ground(1e6, 0.5, 0.8, 0.5, 0.0);
    const ContactMaterial shell(1e6, 0.5, 0.8, 0.5, 0.0);
    matter.Ground().updBody().addContactSurface(
        Transform(Rotation(-Pi / 2, ZAxis)), ContactSurface(ContactGeometry::HalfSpace(), ground));

    const Vec3 half(0.1, 0.05, 0.2);
    const Real mass = 2;
    Body::Rigid body(MassProperties(mass, Vec3(0), UnitInertia::brick(half)));
    body.addContactSurface(Transform(), ContactSurface(ContactGeometry::Brick(half), shell));
    MobilizedBody::Free brick(matter.Ground(), Transform(), body, Transform());

    State state = system.realizeTopology();
    brick.setQToFitTransform(state, Transform(Rotation(0.4, XAxis) * Rotation(0.3, ZAxis), Vec3(0, 0.3 + dy, 0)));
    brick.setUToFitAngularVelocity(state, Vec3(1.0, 2.0, 0.5));
    brick.setUToFitLinearVelocity(state, Vec3(0.8, 0, 0.3));

    RungeKuttaMersonIntegrator integ(system);
    integ.setAccuracy(1e-6);
    TimeStepper ts(system, integ);
    ts.initialize(state);
    std::printf("t,x,y,z,qw,qx,qy,qz,wx,wy,wz,vx,vy,vz,ke,pe,energy\n");
    for (int i = 0; i <= 150; ++i) {
        if (i > 0) ts.stepTo(0.01 * i);
        const State& s = integ.getState();
        system.realize(s, Stage::Dynamics);
        const Transform& X = brick.getBodyTransform(s);
        Quaternion q = X.R().convertRotationToQuaternion();
        if (q[0] < 0) q = Quaternion(-q.asVec4(), true);
        const SpatialVec& V = brick.getBodyVelocity(s);
        const Real ke = system.calcKineticEnergy(s), pe = system.calcPotentialEnergy(s);
        std::printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                    s.getTime(), X.p()[0], X.p()[1], X.p()[2], q[0], q[1], q[2], q[3],
                    V[0][0], V[0][1], V[0][2], V[1][0], V[1][1], V[1][2], ke, pe, ke + pe);
    }
    std::fprintf(stderr, "steps %d, rejected %d\n", integ.getNumStepsTaken(),
                 integ.getNumErrorTestFailures());
    return 0;
}
