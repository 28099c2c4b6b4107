// C++ Boost.Polygon's Voronoi builder on the same integer sites as the Rust port, for the
// differential test and the side-by-side timing in `bench/voronoi-patch` (not part of the
// tests; built by `build.sh`).
//
// Input on stdin: the number of points, one "x y" per line, the number of segments, one
// "x1 y1 x2 y2" per line (what `Walls::integer_sites` gives, grid coordinates within
// ±2^29, so they fit Boost's default 32-bit input type).
//
//   boost_voronoi            prints "vertices edges cells", then one "x y" per vertex
//   boost_voronoi time N     builds N times and prints the thread CPU time per build in ms
#include <boost/polygon/polygon.hpp>
#include <boost/polygon/voronoi.hpp>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

using boost::polygon::voronoi_diagram;
typedef boost::polygon::point_data<int> Point;
typedef boost::polygon::segment_data<int> Segment;

static double thread_cpu_ms() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    std::vector<Point> points;
    std::vector<Segment> segments;
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    for (long i = 0; i < n; ++i) {
        long x, y;
        if (scanf("%ld %ld", &x, &y) != 2) return 2;
        points.push_back(Point(x, y));
    }
    if (scanf("%ld", &n) != 1) return 2;
    for (long i = 0; i < n; ++i) {
        long x1, y1, x2, y2;
        if (scanf("%ld %ld %ld %ld", &x1, &y1, &x2, &y2) != 4) return 2;
        segments.push_back(Segment(Point(x1, y1), Point(x2, y2)));
    }
    if (argc == 3) {
        long reps = atol(argv[2]);
        double start = thread_cpu_ms();
        size_t sink = 0;
        for (long r = 0; r < reps; ++r) {
            voronoi_diagram<double> vd;
            construct_voronoi(points.begin(), points.end(), segments.begin(), segments.end(), &vd);
            sink += vd.num_vertices();
        }
        printf("%.6f %zu\n", (thread_cpu_ms() - start) / reps, sink);
        return 0;
    }
    voronoi_diagram<double> vd;
    construct_voronoi(points.begin(), points.end(), segments.begin(), segments.end(), &vd);
    printf("%zu %zu %zu\n", vd.num_vertices(), vd.num_edges(), vd.num_cells());
    for (auto it = vd.vertices().begin(); it != vd.vertices().end(); ++it)
        printf("%.17g %.17g\n", it->x(), it->y());
    return 0;
}
