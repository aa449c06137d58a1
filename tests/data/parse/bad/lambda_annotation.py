# expect: 2:5: cannot assign to lambda here. Maybe you meant '==' instead of '='?
f = lambda x: int = 1: x
