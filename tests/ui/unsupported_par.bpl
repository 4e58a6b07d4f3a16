// error: `par` calls (CIVL concurrency) are not supported yet
procedure {:yields} {:layer 1} A();
procedure {:yields} {:layer 1} B();

procedure {:yields} {:layer 1} Both()
{
  par A() | B();
}
