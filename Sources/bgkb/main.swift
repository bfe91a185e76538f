print("bgkb")
