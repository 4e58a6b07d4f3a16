// error: attribute expressions are typed; `{:minimize}` takes one numeric expression
const {:hint pux0 ++ pux0} pux0: int;

procedure P(n: bool)
{
  assume {:minimize n} true;
  assume {:id "s0"} true;
  assert {:id "s0"} true;
}
