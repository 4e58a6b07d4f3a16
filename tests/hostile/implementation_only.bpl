implementation P(x: int)
{
}
