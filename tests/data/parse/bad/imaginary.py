# expect: 2:5: imaginary literals are not supported
z = 2j
