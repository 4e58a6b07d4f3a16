// error: attribute on an implementation's parameter (it belongs on the procedure's)
procedure Touch(x: int);

implementation Touch({:unused} x: int)
{
}
