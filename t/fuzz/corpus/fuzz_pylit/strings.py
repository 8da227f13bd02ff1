'''a\n\x41\u00e9\U0001F600\ud83d\ude00
b''' r'\d' u"c"