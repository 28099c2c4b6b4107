// CGAL's Triangular_expansion_visibility_2 (Bungiu et al. 2014) with the exact kernel,
// timed per query on the walls and points the Rust side wrote (corridor-ecm's example
// `visibility_bench prepare`), for the side-by-side table in docs/BENCHMARKS.md.
//
// usage: tev SEGS QUERIES OUT.csv [REPS=3]
//   SEGS: first line N, then N lines "x1 y1 x2 y2" (the normalized walls, user units)
//   QUERIES: first line Q, then Q lines "x y"
//   OUT.csv: qid,vertices,area,cpu_us (vertices after dropping those collinear with
//            their neighbours, exact predicate; area by shoelace on to_double; cpu_us the
//            smallest thread CPU time of REPS runs of compute_visibility)
// The walls are inserted with CGAL::insert, so segments that touch (pinch corners) meet
// in an arrangement vertex: nothing is seen through a pinch point (regularized output,
// Tag_true), the semantics of corridor-ecm's visibility polygons.
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Arr_segment_traits_2.h>
#include <CGAL/Arrangement_2.h>
#include <CGAL/Arr_trapezoid_ric_point_location.h>
#include <CGAL/Triangular_expansion_visibility_2.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <vector>

using K = CGAL::Exact_predicates_exact_constructions_kernel;
using Traits = CGAL::Arr_segment_traits_2<K>;
using Arr = CGAL::Arrangement_2<Traits>;
using Point = K::Point_2;
using TEV = CGAL::Triangular_expansion_visibility_2<Arr, CGAL::Tag_true>;
using PL = CGAL::Arr_trapezoid_ric_point_location<Arr>;

static double cpu_us() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s SEGS QUERIES OUT.csv [REPS=3]\n", argv[0]);
    return 2;
  }
  int reps = argc > 4 ? std::atoi(argv[4]) : 3;
  std::vector<Traits::X_monotone_curve_2> segs;
  {
    std::ifstream f(argv[1]);
    size_t n;
    f >> n;
    for (size_t i = 0; i < n; ++i) {
      double a, b, c, d;
      f >> a >> b >> c >> d;
      segs.emplace_back(Point(a, b), Point(c, d));
    }
    if (!f) { std::fprintf(stderr, "bad segments file %s\n", argv[1]); return 1; }
  }
  std::vector<Point> qs;
  {
    std::ifstream f(argv[2]);
    size_t n;
    f >> n;
    for (size_t i = 0; i < n; ++i) {
      double x, y;
      f >> x >> y;
      qs.emplace_back(x, y);
    }
    if (!f) { std::fprintf(stderr, "bad queries file %s\n", argv[2]); return 1; }
  }
  auto t0 = std::chrono::steady_clock::now();
  Arr arr;
  CGAL::insert(arr, segs.begin(), segs.end());
  TEV tev(arr);
  PL pl(arr);
  auto t1 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "cgal: %zu segments, %zu faces, preprocessing %.3f s\n", segs.size(),
               (size_t)arr.number_of_faces(), std::chrono::duration<double>(t1 - t0).count());
  std::ofstream out(argv[3]);
  out.precision(17);
  out << "qid,vertices,area,cpu_us\n";
  for (size_t i = 0; i < qs.size(); ++i) {
    auto obj = pl.locate(qs[i]);
    auto* face = boost::get<Arr::Face_const_handle>(&obj);
    if (!face || (*face)->is_unbounded()) {
      out << i << ",0,0,0\n";
      continue;
    }
    double best = 1e300;
    size_t nverts = 0;
    double area = 0;
    for (int r = 0; r < reps; ++r) {
      Arr vis;
      double a = cpu_us();
      auto fh = tev.compute_visibility(qs[i], *face, vis);
      double b = cpu_us();
      best = std::min(best, b - a);
      if (r == 0) {
        std::vector<Point> pts;
        auto c = fh->outer_ccb(), e = c;
        do { pts.push_back(e->source()->point()); } while (++e != c);
        size_t n = pts.size();
        long double s = 0;
        for (size_t k = 0; k < n; ++k) {
          const Point& p = pts[(k + n - 1) % n];
          const Point& q = pts[k];
          const Point& t = pts[(k + 1) % n];
          if (!CGAL::collinear(p, q, t)) ++nverts;
          s += (long double)CGAL::to_double(q.x()) * CGAL::to_double(t.y()) -
               (long double)CGAL::to_double(t.x()) * CGAL::to_double(q.y());
        }
        area = (double)(s / 2);
        if (area < 0) area = -area;
      }
    }
    out << i << ',' << nverts << ',' << area << ',' << best << '\n';
  }
  return 0;
}
