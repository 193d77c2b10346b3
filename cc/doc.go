// Package cc defines the congestion-controller contract shared by every
// engine (sim, emu, net) and the registry of algorithms.
//
// A Controller is one flow's congestion control. It is driven by events that
// carry the time as an argument (it never reads a clock) and returns its
// decisions through CWnd and PacingRate; it never reaches into the transport.
// Algorithms live in subpackages (cc/reno, cc/cubic, cc/bbr, ...) that
// register themselves at init; import cc/all to get every one of them.
package cc
