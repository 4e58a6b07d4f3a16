// Clock (the paper's "Clock" class): a 24-hour clock with hours, minutes and seconds;
// ticking a second carries into the minutes, and a minute into the hours, each wrapping
// around.  The class invariant (every field in range) becomes requires/ensures.
// Paper: 8 branches; seedgen goals (--goals all): 10 (the entries of Make and the three
// setters, and then/else in each of the three Increase procedures).

var hours: int;
var minutes: int;
var seconds: int;

function InRange(h: int, m: int, s: int): bool
{
  0 <= h && h < 24 && 0 <= m && m < 60 && 0 <= s && s < 60
}

// Seconds since midnight.
function Time(h: int, m: int, s: int): int { h * 3600 + m * 60 + s }

procedure Make()
  modifies hours, minutes, seconds;
  ensures hours == 0 && minutes == 0 && seconds == 0;
  ensures InRange(hours, minutes, seconds);
{
  hours := 0;
  minutes := 0;
  seconds := 0;
}

procedure SetHours(value: int)
  requires InRange(hours, minutes, seconds);
  requires 0 <= value && value < 24;
  modifies hours;
  ensures hours == value;
  ensures InRange(hours, minutes, seconds);
{
  hours := value;
}

procedure SetMinutes(value: int)
  requires InRange(hours, minutes, seconds);
  requires 0 <= value && value < 60;
  modifies minutes;
  ensures minutes == value;
  ensures InRange(hours, minutes, seconds);
{
  minutes := value;
}

procedure SetSeconds(value: int)
  requires InRange(hours, minutes, seconds);
  requires 0 <= value && value < 60;
  modifies seconds;
  ensures seconds == value;
  ensures InRange(hours, minutes, seconds);
{
  seconds := value;
}

procedure IncreaseHours()
  requires InRange(hours, minutes, seconds);
  modifies hours;
  ensures hours == (old(hours) + 1) mod 24;
  ensures InRange(hours, minutes, seconds);
{
  if (hours == 23) {
    call SetHours(0);
  } else {
    call SetHours(hours + 1);
  }
}

procedure IncreaseMinutes()
  requires InRange(hours, minutes, seconds);
  modifies hours, minutes;
  ensures Time(hours, minutes, 0) == (Time(old(hours), old(minutes), 0) + 60) mod 86400;
  ensures InRange(hours, minutes, seconds);
{
  if (minutes < 59) {
    call SetMinutes(minutes + 1);
  } else {
    call SetMinutes(0);
    call IncreaseHours();
  }
}

procedure IncreaseSeconds()
  requires InRange(hours, minutes, seconds);
  modifies hours, minutes, seconds;
  ensures Time(hours, minutes, seconds) == (Time(old(hours), old(minutes), old(seconds)) + 1) mod 86400;
  ensures InRange(hours, minutes, seconds);
{
  if (seconds < 59) {
    call SetSeconds(seconds + 1);
  } else {
    call SetSeconds(0);
    call IncreaseMinutes();
  }
}
