//go:build !sweep

package testutil

const sweepTag = false
