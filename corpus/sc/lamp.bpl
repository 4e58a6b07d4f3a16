// Lamp (the paper's "Lamp" class): a lamp with a dimmer.  TurnOnOff switches it, and
// when switched on restores the intensity it had when last switched off (or Low);
// AdjustLight cycles an on lamp through Low -> Medium -> High -> Low.  The class
// invariant (the intensities are one of the four levels; the lamp is on exactly when
// its intensity is not zero) becomes requires/ensures.
// The final `else` of AdjustLight is unreachable: an on lamp is always at Low, Medium
// or High.
// Paper: 8 branches, one unreachable; seedgen goals (--goals all): 10 (4 in TurnOnOff,
// 6 in AdjustLight), one unreachable: AdjustLight/if#1/else/if#1/else/if#1/else.
// expect-unreachable: AdjustLight/if#1/else/if#1/else/if#1/else

const Zero: int;
const Low: int;
const Medium: int;
const High: int;
axiom Zero == 0 && Low == 25 && Medium == 75 && High == 100;

var is_on: bool;
var light_intensity: int;
var previous_light_intensity: int;  // the intensity when the lamp was last turned off

function IsLevel(intensity: int): bool
{
  intensity == Zero || intensity == Low || intensity == Medium || intensity == High
}

function LampInvariant(is_on: bool, light_intensity: int, previous_light_intensity: int): bool
{
  IsLevel(light_intensity) && IsLevel(previous_light_intensity) &&
  (is_on <==> light_intensity != Zero)
}

procedure TurnOnOff()
  requires LampInvariant(is_on, light_intensity, previous_light_intensity);
  modifies is_on, light_intensity, previous_light_intensity;
  ensures old(!is_on && previous_light_intensity != Zero) ==>
            is_on && light_intensity == old(previous_light_intensity);
  ensures old(!is_on && previous_light_intensity == Zero) ==> is_on && light_intensity == Low;
  ensures old(is_on) ==>
            !is_on && previous_light_intensity == old(light_intensity) && light_intensity == Zero;
  ensures LampInvariant(is_on, light_intensity, previous_light_intensity);
{
  if (!is_on) {
    is_on := true;
    if (previous_light_intensity > Zero) {
      light_intensity := previous_light_intensity;
    } else {
      light_intensity := Low;
    }
  } else {
    is_on := false;
    previous_light_intensity := light_intensity;
    light_intensity := Zero;
  }
}

procedure AdjustLight()
  requires LampInvariant(is_on, light_intensity, previous_light_intensity);
  requires is_on;
  modifies light_intensity;
  ensures old(light_intensity) == Low ==> light_intensity == Medium;
  ensures old(light_intensity) == Medium ==> light_intensity == High;
  ensures old(light_intensity) == High ==> light_intensity == Low;
  ensures LampInvariant(is_on, light_intensity, previous_light_intensity);
{
  if (light_intensity == Low) {
    light_intensity := Medium;
  } else if (light_intensity == Medium) {
    light_intensity := High;
  } else if (light_intensity == High) {
    light_intensity := Low;
  } else {
    // Unreachable: an on lamp is at Low, Medium or High.
  }
}
