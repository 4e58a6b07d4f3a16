var f: float24e8;
