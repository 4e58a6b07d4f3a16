// error: `Scramble` havocs the global `seed`, which is not in its modifies clause
var seed: int;

procedure Scramble() returns (r: int)
{
  havoc seed;
  r := seed;
}
