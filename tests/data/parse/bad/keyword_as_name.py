# expect: 2:7: expected class name after 'class', found '='
class = 1
