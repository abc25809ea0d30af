def main():
    text = "The Quick brown fox, 42 jumps; over the lazy dog 7 times! " * 15000
    vowels = letters = digits = other = 0
    for c in text:
        if c == "a" or c == "e" or c == "i" or c == "o" or c == "u":
            vowels += 1
        if c >= "a" and c <= "z" or c >= "A" and c <= "Z":
            letters += 1
        elif c >= "0" and c <= "9":
            digits += 1
        elif c != " " and not (c == ","):
            other += 1
    print(f"{vowels} {letters} {digits} {other}")


main()
