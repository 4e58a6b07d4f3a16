// A seedgen test suite in its Boogie form (docs/suite-format.md, "The Boogie form"):
// each test procedure sets the inputs, calls the procedure under test and asserts the
// recorded outcome. `seedgen run-tests PROGRAM THIS-FILE` replays it; appended to the
// program, it type-checks as Boogie.

axiom {:seedgen_suite "seedgen-suite", 2}
    {:tool "seedgen 0.1.0"}
    {:source "max.bpl", "sha256:d81e9207a601873f102b8715d8bffdf69c6fae11046f24fecc74a7ab7daac804"}
    {:options "leaves", 1}
    true;

// Max: 2 goals, 2 tests
axiom {:seedgen_procedure "Max", "sha256:5f57d8b454613055b72cc980428e65c82a0d4b9c285b8c2dccd679e133ff3ec8"} true;
axiom {:seedgen_goal "Max/if#1/then"} {:span 8, 3, 10, 4} {:leaf true} {:status "covered"} {:test "Max/t2"} true;
axiom {:seedgen_goal "Max/if#1/else"} {:span 11, 5, 11, 12} {:leaf true} {:status "covered"} {:test "Max/t1"} true;

procedure {:seedgen_test "Max/t1"}
    {:targets "Max/if#1/then", "Max/if#1/else"}
    {:covers "Max/if#1/else"}
    test_Max_t1()
{
    var a: int;
    var b: int;
    var m: int;

    a := 0;
    b := 1;
    call m := Max(a, b);
    assert m == 1;
}

procedure {:seedgen_test "Max/t2"}
    {:targets "Max/if#1/then"}
    {:covers "Max/if#1/then"}
    test_Max_t2()
{
    var a: int;
    var b: int;
    var m: int;

    a := 0;
    b := 0;
    call m := Max(a, b);
    assert m == 0;
}

// Max3: 1 goal, 1 test
axiom {:seedgen_procedure "Max3", "sha256:3e110f8e0d987d73e7dee5c2e60200baf4a5e43e2b594daf51d8ed264224aa15"} true;
axiom {:seedgen_goal "Max3/entry"} {:span 16, 1, 23, 2} {:leaf true} {:status "covered"} {:test "Max3/t1"} true;

procedure {:seedgen_test "Max3/t1"}
    {:targets "Max3/entry"}
    {:covers "Max3/entry"}
    test_Max3_t1()
{
    var a: int;
    var b: int;
    var c: int;
    var m: int;

    a := 0;
    b := 0;
    c := 0;
    call m := Max3(a, b, c);
    assert m == 0;
}
