package emu

import "testing"

func TestParseTxDropped(t *testing.T) {
	dev := `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0
  leo0: 1234567    1000    0    0    0     0          0         0  7654321    2000    0   17    0     0       0          0
`
	n, err := parseTxDropped(dev, "leo0")
	if err != nil || n != 17 {
		t.Fatalf("parseTxDropped = %d, %v; want 17", n, err)
	}
	if _, err := parseTxDropped(dev, "eth9"); err == nil {
		t.Fatalf("missing device not reported")
	}
}
