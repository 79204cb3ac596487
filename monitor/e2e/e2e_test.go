package e2e

import (
	"context"
	"testing"
)

// TestShop: the client exports over OTLP/gRPC, the shop and the database
// over OTLP/HTTP (protobuf, gzip), straight to the monitor; the monitor's
// verdicts are the expected ones, the correct order a Pass, every fault a
// Fail, and nothing is lost.
func TestShop(t *testing.T) {
	m, err := StartMonitor(".")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	client, shop, db, err := Services(ctx, m.GRPCAddr, m.HTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Run(ctx, client, shop, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range m.Stop(want) {
		t.Error(err)
	}
}
