//go:build !linux

package memlimit

func adviseHugePages() (int64, error) { return 0, nil }

func canPrepare() bool { return false }

func hugePagesAsked() bool { return false }
