type Set a = [a]bool;
