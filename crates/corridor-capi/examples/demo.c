/* Corridor from C: load a map from a file and a built-in scene, plan paths for two radii,
 * insert and remove an obstacle (planned, then applied), save and load the map (with its
 * environment: the loaded map takes updates; without: read-only), and check every answer
 * against a closed form or the benchmark's published optimum; run a crowd around an
 * obstacle while another obstacle is inserted, moved and removed, checked against the
 * clearance of a map that follows the same changes. Exits nonzero on the first failed
 * check.
 *
 *   cc -Wall -Wextra -Werror -I crates/corridor-capi/include crates/corridor-capi/examples/demo.c \
 *      target/release/libcorridor_capi.a -lm -lpthread -ldl -o demo
 *   ./demo data/anyangle/custom_maze14x11/maze.txt
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "corridor.h"

static int failures = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);         \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            failures++;                                                    \
        }                                                                  \
    } while (0)

/* A call that must succeed: otherwise print the library's message and stop. */
#define MUST(call)                                                         \
    do {                                                                   \
        CorridorStatus s_ = (call);                                        \
        if (s_ != CORRIDOR_STATUS_OK) {                                    \
            fprintf(stderr, "FAILED %s:%d: %s -> %d: %s\n", __FILE__,      \
                    __LINE__, #call, (int)s_, corridor_last_error());      \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

static double path_length(const CorridorMap *map, double sx, double sy, double gx,
                          double gy, double radius) {
    CorridorPath *path = NULL;
    MUST(corridor_map_find_path(map, sx, sy, gx, gy, radius, radius, &path));
    double length = corridor_path_length(path);
    /* Every point keeps the radius from the walls (at radius 0 the path touches corners,
     * which are not inside the free space). */
    size_t n = 0;
    const double *xy = corridor_path_points(path, &n);
    CHECK(n >= 2 && xy[0] == sx && xy[1] == sy, "the path starts at the start");
    for (size_t i = 0; radius > 0 && i < n; i++) {
        double c = 0;
        MUST(corridor_map_clearance(map, xy[2 * i], xy[2 * i + 1], &c));
        CHECK(c >= radius - 1e-6, "point %zu has clearance %g < radius %g", i, c, radius);
    }
    size_t steps = 0;
    const CorridorStep *corridor = corridor_path_corridor(path, &steps);
    for (size_t i = 0; i < steps; i++)
        CHECK(corridor[i].clearance >= radius - 1e-6, "corridor step %zu too narrow", i);
    corridor_path_free(path);
    return length;
}

int main(int argc, char **argv) {
    const char *maze = argc > 1 ? argv[1] : "data/anyangle/custom_maze14x11/maze.txt";

    /* 1. A file from data/: the any-angle benchmark's published optimum. */
    CorridorMap *grid = NULL;
    MUST(corridor_map_load(maze, &grid));
    double l = path_length(grid, 0, 0, 11, 11, 0.0);
    CHECK(fabs(l - 48.781956) < 1e-5, "maze length %.6f, published 48.781956", l);
    CorridorPath *none = NULL;
    CorridorStatus s = corridor_map_find_path(grid, NAN, 0, 11, 11, 0, 0, &none);
    CHECK(s == CORRIDOR_STATUS_QUERY_FAILED && none == NULL, "a NaN start fails (%d)", (int)s);
    printf("maze: length %.6f; a NaN start: %s\n", l, corridor_last_error());
    corridor_map_free(grid);

    /* 2. A built-in scene: the empty 100 x 80 box, two radii. */
    CorridorMap *map = NULL;
    MUST(corridor_map_from_scene("empty", &map));
    const double straight = 100; /* (10, 10) to (90, 70) */
    CHECK(fabs(path_length(map, 10, 10, 90, 70, 0.0) - straight) < 1e-9, "straight at radius 0");
    CHECK(fabs(path_length(map, 10, 10, 90, 70, 2.0) - straight) < 1e-9, "straight at radius 2");

    /* 3. Insert a block in the way: plan it (queries may go on meanwhile), then apply. */
    const double block[] = {40, 30, 60, 30, 60, 50, 40, 50};
    CorridorPatch *patch = NULL;
    MUST(corridor_map_plan_insert_polygon(map, block, 4, &patch));
    CHECK(fabs(path_length(map, 10, 10, 90, 70, 0.0) - straight) < 1e-9, "old map until applied");
    uint32_t id = 0;
    MUST(corridor_map_apply(map, patch, &id));
    CHECK(corridor_map_obstacle_count(map) == 1, "one obstacle after the insert");
    /* Around a corner of the block: (10,10) -> (40,50) -> (90,70) or its mirror. */
    const double around = 50 + sqrt(50.0 * 50 + 20 * 20);
    double l0 = path_length(map, 10, 10, 90, 70, 0.0);
    double l2 = path_length(map, 10, 10, 90, 70, 2.0);
    CHECK(fabs(l0 - around) < 1e-9, "around the block %.9f, expected %.9f", l0, around);
    CHECK(l2 > l0 + 1e-3, "radius 2 goes wider: %.6f vs %.6f", l2, l0);
    double c = 0;
    MUST(corridor_map_clearance(map, 50, 60, &c));
    CHECK(fabs(c - 10) < 1e-9, "clearance above the block %g", c);
    CHECK(corridor_map_clearance(map, 50, 40, &c) == CORRIDOR_STATUS_QUERY_FAILED,
          "inside the block is not free");
    double nx = 0, ny = 0;
    MUST(corridor_map_nearest_obstacle(map, 50, 60, &nx, &ny));
    CHECK(fabs(nx - 50) < 1e-9 && fabs(ny - 50) < 1e-9, "nearest (%g, %g)", nx, ny);
    printf("empty box: straight %.6f, around the block %.6f (radius 0) and %.6f (radius 2)\n",
           straight, l0, l2);

    /* Bad input gets a status, not a crash. */
    const double bowtie[] = {20, 20, 30, 30, 30, 20, 20, 30};
    uint32_t bad = 0;
    s = corridor_map_insert_polygon(map, bowtie, 4, &bad);
    CHECK(s == CORRIDOR_STATUS_INVALID_GEOMETRY, "a self-intersecting polygon (%d)", (int)s);
    printf("bowtie: %s\n", corridor_last_error());
    s = corridor_map_remove(map, 999);
    CHECK(s == CORRIDOR_STATUS_UNKNOWN_OBSTACLE, "unknown id (%d)", (int)s);
    CHECK(corridor_map_find_path(NULL, 0, 0, 1, 1, 0, 0, &none) == CORRIDOR_STATUS_NULL_ARGUMENT,
          "a NULL map");

    /* Two patches planned on one version: the second is stale once the first is applied. */
    CorridorPatch *a = NULL, *b = NULL;
    MUST(corridor_map_plan_remove(map, id, &a));
    MUST(corridor_map_plan_remove(map, id, &b));
    MUST(corridor_map_apply(map, a, NULL));
    s = corridor_map_apply(map, b, NULL);
    CHECK(s == CORRIDOR_STATUS_STALE_PATCH, "a stale patch (%d)", (int)s);
    CHECK(corridor_map_obstacle_count(map) == 0, "the block is gone");
    CHECK(fabs(path_length(map, 10, 10, 90, 70, 0.0) - straight) < 1e-9, "straight again");

    /* 4. Save the map with its environment and load it back: same answers, and it takes
     * updates (the block again: the same closed form). Saved without the environment,
     * the loaded map is read-only. */
    const char *file = "corridor-demo.ecm";
    MUST(corridor_map_save_ecm(map, file));
    CorridorMap *loaded = NULL;
    MUST(corridor_map_load_ecm(file, &loaded));
    CHECK(fabs(path_length(loaded, 10, 10, 90, 70, 2.0) - straight) < 1e-9, "loaded map");
    uint32_t again = 0;
    MUST(corridor_map_insert_polygon(loaded, block, 4, &again));
    CHECK(again > id, "ids go on after a load (%u after %u)", (unsigned)again, (unsigned)id);
    l0 = path_length(loaded, 10, 10, 90, 70, 0.0);
    CHECK(fabs(l0 - around) < 1e-9, "loaded map, around the block %.9f", l0);
    MUST(corridor_map_remove(loaded, again));
    CHECK(fabs(path_length(loaded, 10, 10, 90, 70, 0.0) - straight) < 1e-9, "straight again");
    corridor_map_free(loaded);
    MUST(corridor_map_save_ecm_only(map, file));
    MUST(corridor_map_load_ecm(file, &loaded));
    CHECK(fabs(path_length(loaded, 10, 10, 90, 70, 2.0) - straight) < 1e-9, "loaded ECM");
    s = corridor_map_remove(loaded, 0);
    CHECK(s == CORRIDOR_STATUS_READ_ONLY, "an ECM saved alone loads read-only (%d)", (int)s);
    printf("saved map: takes updates after loading; saved alone: %s\n", corridor_last_error());
    remove(file);

    /* 5. A crowd on a copy of the map, around a block: two groups cross, nobody enters
     * the block (the map's own clearance query is the judge), everyone arrives. */
    CorridorCrowd *crowd = NULL;
    s = corridor_crowd_new(loaded, NULL, &crowd);
    CHECK(s == CORRIDOR_STATUS_READ_ONLY && crowd == NULL, "no crowd on a read-only map (%d)", (int)s);
    corridor_map_free(loaded);
    MUST(corridor_map_insert_polygon(map, block, 4, &id));
    CorridorCrowdOptions options = corridor_crowd_options_default();
    options.threads = 2;
    MUST(corridor_crowd_new(map, &options, &crowd));
    CorridorCharacter people[8];
    for (int i = 0; i < 4; i++) {
        people[i] = corridor_character(10, 25 + 10 * i, 90, 55 - 10 * i, 0.5);
        people[4 + i] = corridor_character(90, 25 + 10 * i, 10, 55 - 10 * i, 0.5);
    }
    uint64_t ids[8];
    MUST(corridor_crowd_add(crowd, people, 8, ids));
    CorridorCharacter inside = corridor_character(50, 40, 10, 10, 0.5);
    s = corridor_crowd_add(crowd, &inside, 1, NULL);
    CHECK(s == CORRIDOR_STATUS_QUERY_FAILED, "a start inside the block (%d)", (int)s);
    printf("crowd: a start inside the block: %s\n", corridor_last_error());
    uint64_t nobody = 12345;
    s = corridor_crowd_remove(crowd, &nobody, 1);
    CHECK(s == CORRIDOR_STATUS_UNKNOWN_CHARACTER, "an unknown character (%d)", (int)s);
    /* Obstacle changes while the crowd walks: queued, applied at the end of the next
     * step. The judge `map` gets the same change right after that step. */
    const double crate[] = {30, 60, 34, 60, 34, 64, 30, 64};
    const double crate_moved[] = {66, 16, 70, 16, 70, 20, 66, 20};
    uint32_t crate_id = 0, judge_id = 0;
    s = corridor_crowd_remove_obstacle(crowd, 999);
    CHECK(s == CORRIDOR_STATUS_UNKNOWN_OBSTACLE, "an unknown obstacle (%d)", (int)s);
    s = corridor_crowd_insert_polygon(crowd, bowtie, 4, &bad);
    CHECK(s == CORRIDOR_STATUS_INVALID_GEOMETRY, "a bowtie in the crowd's map (%d)", (int)s);
    size_t arrived = 0, n = 0;
    for (int step = 0; step < 800 && arrived < 8; step++) {
        if (step == 10)
            MUST(corridor_crowd_insert_polygon(crowd, crate, 4, &crate_id));
        if (step == 40)
            MUST(corridor_crowd_move_polygon(crowd, crate_id, crate_moved, 4));
        if (step == 80)
            MUST(corridor_crowd_remove_obstacle(crowd, crate_id));
        MUST(corridor_crowd_step(crowd, 1));
        if (step == 10) {
            MUST(corridor_map_insert_polygon(map, crate, 4, &judge_id));
            CHECK(judge_id == crate_id, "the crowd's new id %u is the map's %u",
                  (unsigned)crate_id, (unsigned)judge_id);
            CHECK(corridor_crowd_obstacle_count(crowd) == 2, "the crate is in the crowd's map");
        }
        if (step == 40) {
            CorridorPatch *move = NULL;
            MUST(corridor_map_plan_move_polygon(map, judge_id, crate_moved, 4, &move));
            MUST(corridor_map_apply(map, move, NULL));
        }
        if (step == 80) {
            MUST(corridor_map_remove(map, judge_id));
            CHECK(corridor_crowd_obstacle_count(crowd) == 1, "the crate is gone");
        }
        const double *xy = corridor_crowd_positions(crowd, &n); /* in place, no copy */
        for (size_t i = 0; i < n; i++) {
            MUST(corridor_map_clearance(map, xy[2 * i], xy[2 * i + 1], &c));
            CHECK(c >= 0.5 - 1e-6, "character %zu is %g from a wall", i, c);
        }
        const CorridorPhase *phases = corridor_crowd_phases(crowd, &n);
        arrived = 0;
        for (size_t i = 0; i < n; i++)
            arrived += phases[i] == CORRIDOR_PHASE_ARRIVED;
    }
    CHECK(arrived == 8, "%zu of 8 arrived", arrived);
    size_t row = 0;
    MUST(corridor_crowd_index(crowd, ids[0], &row));
    const double *xy = corridor_crowd_positions(crowd, &n);
    CHECK(hypot(xy[2 * row] - 90, xy[2 * row + 1] - 55) <= 0.5, "the first is at its goal");
    printf("crowd: 8 characters crossed around the block in %.2f s while a crate came, "
           "moved and went\n", corridor_crowd_time(crowd));
    corridor_crowd_free(crowd);
    corridor_map_free(map);

    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("all C API checks passed\n");
    return 0;
}
