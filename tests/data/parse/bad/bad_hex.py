# expect: 2:5: invalid hexadecimal literal
n = 0xg1
