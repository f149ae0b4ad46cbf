package batch

// Screen turns buy's float screening on or off (tests).
func Screen(on bool) { screen = on }
