//go:build slow

package main

// checksum folds buf into one word, the planted regression: four passes
// over the buffer where one gives the same kind of answer.
//
//go:noinline
func checksum(buf []uint64) uint64 {
	var h uint64 = 14695981039346656037
	for pass := range 4 {
		for _, v := range buf {
			h = (h ^ v ^ uint64(pass)) * 1099511628211
		}
	}
	return h
}
