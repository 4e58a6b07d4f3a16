type {:datatype} List;
