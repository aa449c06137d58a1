# expect: 2:1: cannot assign to literal here. Maybe you meant '==' instead of '='?
1 = x
