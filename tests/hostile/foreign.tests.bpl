// A seedgen test suite in its Boogie form (docs/suite-format.md, "The Boogie form"):
// each test procedure sets the inputs, calls the procedure under test and asserts the
// recorded outcome. `seedgen run-tests PROGRAM THIS-FILE` replays it; appended to the
// program, it type-checks as Boogie.

axiom {:seedgen_suite "seedgen-suite", 2}
    {:tool "seedgen 0.1.0"}
    {:source "corpus/linear_search.bpl", "sha256:9f53ee1884825094741d8b5fdab0ad5aaf41d9e2aceabce312d45960cc25a1cd"}
    {:options "leaves", 1}
    true;

// LinearSearch: 4 goals, 3 tests
axiom {:seedgen_procedure "LinearSearch", "sha256:58fa28b65b180e3180a51e468eeab847fedc4d1b13021e4e154b802dae930105"} true;
axiom {:seedgen_goal "LinearSearch/while#1/body"} {:span 19, 5, 23, 16} {:leaf false} {:status "covered"} {:test "LinearSearch/t2"} true;
axiom {:seedgen_goal "LinearSearch/while#1/body/if#1/then"} {:span 19, 5, 22, 6} {:leaf true} {:status "covered"} {:test "LinearSearch/t3"} true;
axiom {:seedgen_goal "LinearSearch/while#1/body/if#1/else"} {:span 19, 5, 22, 6} {:leaf true} {:status "covered"} {:test "LinearSearch/t2"} true;
axiom {:seedgen_goal "LinearSearch/while#1/exit"} {:span 14, 3, 24, 4} {:leaf true} {:status "covered"} {:test "LinearSearch/t1"} true;

procedure {:seedgen_test "LinearSearch/t1"}
    {:targets "LinearSearch/while#1/body/if#1/then", "LinearSearch/while#1/body/if#1/else", "LinearSearch/while#1/exit"}
    {:covers "LinearSearch/while#1/exit"}
    test_LinearSearch_t1()
{
    var a: [int]int;
    var n: int;
    var key: int;
    var index: int;

    assume {:param "a", "{\"default\":-1,\"entries\":[]}"} true;
    n := 0;
    key := -1;
    call index := LinearSearch(a, n, key);
    assert index == -1;
}

procedure {:seedgen_test "LinearSearch/t2"}
    {:targets "LinearSearch/while#1/body/if#1/then", "LinearSearch/while#1/body/if#1/else"}
    {:covers "LinearSearch/while#1/body", "LinearSearch/while#1/body/if#1/else", "LinearSearch/while#1/exit"}
    test_LinearSearch_t2()
{
    var a: [int]int;
    var n: int;
    var key: int;
    var index: int;

    assume {:param "a", "{\"default\":4,\"entries\":[[-1,6]]}"} true;
    n := 1;
    key := 5;
    call index := LinearSearch(a, n, key);
    assert index == -1;
}

procedure {:seedgen_test "LinearSearch/t3"}
    {:targets "LinearSearch/while#1/body/if#1/then"}
    {:covers "LinearSearch/while#1/body", "LinearSearch/while#1/body/if#1/then"}
    test_LinearSearch_t3()
{
    var a: [int]int;
    var n: int;
    var key: int;
    var index: int;

    assume {:param "a", "{\"default\":4,\"entries\":[[-1,5]]}"} true;
    n := 1;
    key := 4;
    call index := LinearSearch(a, n, key);
    assert index == 0;
}
