# expect: 4:9: inconsistent use of tabs and spaces in indentation
if x:
	if y:
        pass
