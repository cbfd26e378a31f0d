print("pipctl")
