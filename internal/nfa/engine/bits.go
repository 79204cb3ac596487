package engine

import "math/bits"

func orInto(dst, src []uint64) {
	for i, w := range src {
		dst[i] |= w
	}
}

func andInto(dst, src []uint64) {
	for i, w := range src {
		dst[i] &= w
	}
}

func has(s []uint64, k int) bool { return s[k>>6]&(1<<(k&63)) != 0 }

func firstBit(b []uint64) int {
	for k, x := range b {
		if x != 0 {
			return k<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

func resize(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

func resize32(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, 2*n)
	}
	return b[:n]
}
