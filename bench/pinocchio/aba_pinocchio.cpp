// Pinocchio's ABA timed on a robot: the C++ side of bench/pinocchio/compare.sh.
// Usage: aba_pinocchio MODEL.bin CALLS
// MODEL.bin: the robot's Pinocchio model as Python's pinocchio built it from the URDF
// (buildModelFromUrdf, free flyer for legged robots) and saved with saveToBinary: the pin
// wheel ships the URDF parser's library but not urdfdom's headers.
// Prints the median over 15 batches of the time per aba(model, data, q, v, tau) call (ns) on
// 64 random states (random configuration, v and tau uniform in [-1, 1]).
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/serialization.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: aba_pinocchio MODEL.bin CALLS\n");
    return 2;
  }
  pinocchio::Model model;
  model.loadFromBinary(argv[1]);
  pinocchio::Data data(model);
  const long calls = std::atol(argv[2]);
  std::vector<Eigen::VectorXd> qs, vs, taus;
  std::srand(1);
  for (int k = 0; k < 64; ++k) {
    qs.push_back(pinocchio::randomConfiguration(model, -Eigen::VectorXd::Ones(model.nq),
                                                Eigen::VectorXd::Ones(model.nq)));
    vs.push_back(Eigen::VectorXd::Random(model.nv));
    taus.push_back(Eigen::VectorXd::Random(model.nv));
  }
  std::vector<double> batches;
  double sink = 0;
  for (int b = 0; b < 15; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < calls; ++i) {
      const int k = i & 63;
      sink += pinocchio::aba(model, data, qs[k], vs[k], taus[k])[0];
    }
    auto t1 = std::chrono::steady_clock::now();
    batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
  }
  std::sort(batches.begin(), batches.end());
  std::printf("%.1f\n", batches[batches.size() / 2]);
  return sink == 12345.678 ? 1 : 0;
}
