# expect: 2:5: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers
n = 012
