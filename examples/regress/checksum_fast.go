//go:build !slow

package main

// checksum folds buf into one word: once over the buffer.
//
//go:noinline
func checksum(buf []uint64) uint64 {
	var h uint64 = 14695981039346656037
	for _, v := range buf {
		h = (h ^ v) * 1099511628211
	}
	return h
}
