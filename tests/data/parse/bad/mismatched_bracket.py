# expect: 2:10: closing parenthesis ']' does not match opening parenthesis '('
x = (1, 2]
