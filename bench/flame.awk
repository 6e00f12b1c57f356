# bench/flame.awk: draws folded stacks ("root;...;leaf COUNT" lines, as
# cprof-flat --by=stack --folded prints them) as a flame graph in SVG:
# each frame a box as wide as its share of the samples, callers below
# their callees, siblings in name order.  awk -f bench/flame.awk -v
# title=TEXT FOLDED > flame.svg
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}
{
	count = $NF
	line = $0
	sub(/ [0-9]+$/, "", line)
	n = split(line, frames, ";")
	path = ""
	for (i = 1; i <= n; i++) {
		path = i == 1 ? frames[i] : path ";" frames[i]
		if (!(path in width)) {
			width[path] = 0
			depth[path] = i
			name[path] = frames[i]
			parent = i == 1 ? "" : substr(path, 1, length(path) - length(frames[i]) - 1)
			kids[parent] = kids[parent] "\034" path
			if (i > maxdepth)
				maxdepth = i
		}
		width[path] += count
	}
	total += count
}
function draw(node, x,    list, k, m, i, j, t, w) {
	w = width[node] / total * W
	if (node != "" && w >= 0.3) {
		y = H - 16 * depth[node] - 4
		hue = 20 + (length(name[node]) * 7) % 40
		printf "<g><title>%s (%d samples, %.2f%%)</title>", esc(name[node]), width[node], 100 * width[node] / total
		printf "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"15\" fill=\"hsl(%d,85%%,60%%)\" rx=\"1\"/>", x + 10, y, w, hue
		if (w > 30) {
			label = name[node]
			if (length(label) * 6.5 > w - 4)
				label = substr(label, 1, int((w - 4) / 6.5) - 1) "~"
			printf "<text x=\"%.2f\" y=\"%d\">%s</text>", x + 12, y + 11, esc(label)
		}
		printf "</g>\n"
	}
	m = split(substr(kids[node], 2), list, "\034")
	for (i = 2; i <= m; i++) {
		t = list[i]
		for (j = i - 1; j >= 1 && list[j] > t; j--)
			list[j + 1] = list[j]
		list[j + 1] = t
	}
	for (i = 1; i <= m; i++) {
		draw(list[i], x)
		x += width[list[i]] / total * W
	}
}
END {
	W = 1180
	H = 16 * maxdepth + 40
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"%d\" font-family=\"monospace\" font-size=\"11\">\n", H + 10
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf8\"/>\n"
	printf "<text x=\"10\" y=\"16\" font-size=\"13\">%s (%d samples)</text>\n", esc(title), total
	width[""] = total
	draw("", 0)
	print "</svg>"
}
