package emu

import "testing"

// TestCheckKernelCCA: an unknown name is refused before any namespace is
// built (issue 18: `emu --cca nosuch` built them first); the kernel's
// default, reno, is always built in.
func TestCheckKernelCCA(t *testing.T) {
	if err := CheckKernelCCA("reno"); err != nil {
		t.Fatalf("reno: %v", err)
	}
	err := CheckKernelCCA("nosuch")
	if err == nil {
		t.Fatal("nosuch accepted")
	}
	t.Log(err)
	if err := checkKernelCCAs([]Flow{{Kind: KindCBR, CCA: "nosuch"}, {Kind: KindTCP, CCA: "reno"}}); err != nil {
		t.Fatalf("a cbr flow's cca was checked: %v", err)
	}
	if err := checkKernelCCAs([]Flow{{Kind: KindTCP, CCA: "nosuch"}}); err == nil {
		t.Fatal("checkKernelCCAs accepted nosuch")
	}
}
