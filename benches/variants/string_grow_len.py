def main():
    text = ""
    lines = 0
    while len(text) < 1500000:
        text += f"entry {lines}: value {lines * 7}\n"
        lines += 1
    print(f"{lines} {len(text)}")


main()
