//go:build sweep

package testutil

const sweepTag = true
