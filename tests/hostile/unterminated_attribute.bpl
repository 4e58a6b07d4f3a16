procedure {:inline 1 P(x: int)
{
}
