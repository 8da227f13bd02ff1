# t/bench/stats.awk: the bookkeeping every t/bench/*.sh report shares.
# A record is "KEY... name=value ..." as measure(1) prints it: kv() reads
# its name=value fields from field FIRST on, record(K) notes one timed run
# of K, and summarize() leaves in med[K] and cpu[K] the median wall and
# CPU times of K's runs, in min[K] the fastest and in rss[K] the peak RSS
# in bytes.

function kv(s, first,    i, n, p, a) {
	n = split(s, a, " ")
	for (i = first; i <= n; i++) {
		p = index(a[i], "=")
		f[substr(a[i], 1, p - 1)] = substr(a[i], p + 1)
	}
}

# One run of k, from the fields kv() read; returns how many k has had.
function record(k,    i) {
	i = ++n[k]
	wall[k, i] = f["median"]
	cputime[k, i] = f["cpu"]
	if (i == 1 || f["min"] < min[k])
		min[k] = f["min"]
	if (f["maxrss_kb"] * 1024 > rss[k])
		rss[k] = f["maxrss_kb"] * 1024
	return i
}

# the median of the n values v[key, 1..n]
function median(v, key, n,    i, j, t, a) {
	for (i = 1; i <= n; i++)
		a[i] = v[key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function summarize(    k) {
	for (k in n) {
		med[k] = median(wall, k, n[k])
		cpu[k] = median(cputime, k, n[k])
	}
}
