// Pinocchio's rigid-body algorithms timed on a robot: the C++ side of bench/pinocchio/compare.sh.
// Usage: dynamics_pinocchio ALGORITHM MODEL.bin CALLS
// ALGORITHM: aba (aba(model, data, q, v, tau)), rnea (rnea(model, data, q, v, a)),
// crba (crba(model, data, q)) or aba-derivatives (computeABADerivatives(model, data, q, v, tau):
// da/dq, da/dv and Minv).
// MODEL.bin: the robot's Pinocchio model as Python's pinocchio built it from the URDF
// (buildModelFromUrdf, free flyer for legged robots) and saved with saveToBinary: the pin
// wheel ships the URDF parser's library but not urdfdom's headers.
// Prints the median over 15 batches of the time per call (ns) on 64 random states (random
// configuration; v, a and tau uniform in [-1, 1]).
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/serialization.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: dynamics_pinocchio ALGORITHM MODEL.bin CALLS\n");
    return 2;
  }
  const std::string algorithm = argv[1];
  int which = -1;
  const char *names[] = {"aba", "rnea", "crba", "aba-derivatives"};
  for (int k = 0; k < 4; ++k)
    if (algorithm == names[k]) which = k;
  if (which < 0) {
    std::fprintf(stderr, "ALGORITHM: one of aba, rnea, crba, aba-derivatives\n");
    return 2;
  }
  pinocchio::Model model;
  model.loadFromBinary(argv[2]);
  pinocchio::Data data(model);
  const long calls = std::atol(argv[3]);
  std::vector<Eigen::VectorXd> qs, vs, xs;
  std::srand(1);
  for (int k = 0; k < 64; ++k) {
    qs.push_back(pinocchio::randomConfiguration(model, -Eigen::VectorXd::Ones(model.nq),
                                                Eigen::VectorXd::Ones(model.nq)));
    vs.push_back(Eigen::VectorXd::Random(model.nv));
    xs.push_back(Eigen::VectorXd::Random(model.nv));
  }
  std::vector<double> batches;
  double sink = 0;
  for (int b = 0; b < 15; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < calls; ++i) {
      const int k = i & 63;
      switch (which) {
      case 0:
        sink += pinocchio::aba(model, data, qs[k], vs[k], xs[k])[0];
        break;
      case 1:
        sink += pinocchio::rnea(model, data, qs[k], vs[k], xs[k])[0];
        break;
      case 2:
        sink += pinocchio::crba(model, data, qs[k])(0, 0);
        break;
      default:
        pinocchio::computeABADerivatives(model, data, qs[k], vs[k], xs[k]);
        sink += data.ddq_dq(0, 0);
      }
    }
    auto t1 = std::chrono::steady_clock::now();
    batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
  }
  std::sort(batches.begin(), batches.end());
  std::printf("%.1f\n", batches[batches.size() / 2]);
  return sink == 12345.678 ? 1 : 0;
}
