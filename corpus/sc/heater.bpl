// Heater (the paper's "Heater" class): a thermostat that switches the heater on when the
// room is more than 2 degrees below the desired temperature and off when it is more
// than 2 degrees above it; in between it keeps its state (hysteresis).
// Paper: 8 branches; seedgen goals (--goals all): 9 (the entries of Make and the two
// setters, and 6 in TurnOnOff: on/off, each with switch / keep).

var is_on: bool;
var desired_temperature: int;
var temperature: int;

procedure Make()
  modifies is_on, desired_temperature;
  ensures desired_temperature == 20 && !is_on;
{
  desired_temperature := 20;
  is_on := false;
}

procedure SetDesiredTemperature(value: int)
  requires 10 <= value && value <= 100;
  modifies desired_temperature;
  ensures desired_temperature == value;
{
  desired_temperature := value;
}

// The thermometer reports the room temperature.
procedure SetTemperature(value: int)
  modifies temperature;
  ensures temperature == value;
{
  temperature := value;
}

procedure TurnOnOff()
  requires 10 <= desired_temperature && desired_temperature <= 100;
  modifies is_on;
  ensures temperature > desired_temperature + 2 ==> !is_on;
  ensures temperature < desired_temperature - 2 ==> is_on;
  ensures desired_temperature - 2 <= temperature && temperature <= desired_temperature + 2 ==>
            is_on == old(is_on);
{
  if (is_on) {
    if (temperature > desired_temperature + 2) {
      is_on := false;
    }
  } else {
    if (temperature < desired_temperature - 2) {
      is_on := true;
    }
  }
}
