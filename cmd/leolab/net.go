package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/leolab/leolab/field"
	"github.com/leolab/leolab/profile"
	"github.com/spf13/cobra"
)

func newNetCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "net",
		Short: "Field tools: probe a real network (a real Starlink dish)",
		Long: `The net engine: run 'leolab net serve' on a host beyond the link (a cloud VM)
and 'leolab net probe' behind it (the terminal's side). The probe is a
constant-bit-rate UDP flow with every packet's send time and one-way delay
recorded; the result (engine "net") is read by 'leolab probe' and
'leolab analyze'. One-way delays carry the offset between the two hosts'
clocks; the prober's inference works on their differences.`,
		Example: `  leolab net serve
  leolab net probe vm.example.org --duration 60s --json > dl.json && leolab probe dl.json`,
	}
	c.AddCommand(newNetServeCmd(), newNetProbeCmd())
	return c
}

// tokenEnv holds the shared secret when --token is not given (a flag's
// value shows in ps(1); the environment does not).
const tokenEnv = "LEOLAB_TOKEN"

func newNetServeCmd() *cobra.Command {
	var listen, token string
	lim := field.DefaultLimits()
	c := &cobra.Command{
		Use:   "serve",
		Short: "Answer probes from 'leolab net probe' clients",
		Long: `Listen for probe requests on a TCP port (default 5301; each probe's UDP
port is ephemeral, so the firewall must let UDP through to this host) and
run each: receive an uplink probe and send its trace back, or send a
downlink probe to the client once its address has proven it receives
(a challenge echoed from it; the NAT in front of the client is opened by
the same hellos). Caps on sessions, bytes per client address and trace
sizes keep a public server from being used against others; --token (or
` + tokenEnv + `) makes it private: requests must be signed with the secret.
A line per probe goes to stderr. Stops on SIGINT or SIGTERM, ending every
session within a second.`,
		Example: `  leolab net serve
  LEOLAB_TOKEN=$(cat ~/.leolab-token) leolab net serve --listen 0.0.0.0:6000 --max-sessions 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for name, v := range map[string]int64{"max-sessions": int64(lim.Sessions), "max-sessions-per-ip": int64(lim.SessionsPerIP),
				"max-bytes-per-ip": lim.BytesPerIPHour, "max-line": int64(lim.LineBytes), "max-trace": lim.TracePackets} {
				if v <= 0 {
					return badInput("net serve: --%s %d: must be > 0", name, v)
				}
			}
			if lim.LineBytes < 512 {
				return badInput("net serve: --max-line %d: must be >= 512 bytes (a signed request is ~400)", lim.LineBytes)
			}
			if token == "" {
				token = os.Getenv(tokenEnv)
			}
			ln, err := net.Listen("tcp4", listen)
			if err != nil {
				return badInput("net serve: --listen %s: %v", listen, err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stderr := cmd.ErrOrStderr()
			auth := "public (no token)"
			if token != "" {
				auth = "private (token required)"
			}
			fmt.Fprintf(stderr, "leolab net serve: listening on %v, %s\n", ln.Addr(), auth)
			s := &field.Server{Limits: lim, Token: token, Log: func(l string) {
				fmt.Fprintf(stderr, "%s %s\n", time.Now().UTC().Format(time.RFC3339), l)
			}}
			return s.Serve(ctx, ln)
		},
	}
	fl := c.Flags()
	fl.StringVar(&listen, "listen", ":"+strconv.Itoa(field.DefaultPort), "TCP `address` to listen on")
	fl.StringVar(&token, "token", "", "shared `secret` every request must be signed with (default $"+tokenEnv+"; none: anyone may probe, within the caps)")
	fl.IntVar(&lim.Sessions, "max-sessions", lim.Sessions, "concurrent probes in total")
	fl.IntVar(&lim.SessionsPerIP, "max-sessions-per-ip", lim.SessionsPerIP, "concurrent probes per client address")
	fl.Int64Var(&lim.BytesPerIPHour, "max-bytes-per-ip", lim.BytesPerIPHour, "probe bytes (IP level) per client address per hour")
	fl.IntVar(&lim.LineBytes, "max-line", lim.LineBytes, "longest control line (`bytes`) a client may send")
	fl.Int64Var(&lim.TracePackets, "max-trace", lim.TracePackets, "most `packets` an uplink trace holds (longer uplink probes are refused)")
	return c
}

type netProbeFlags struct {
	direction string
	rate      string
	size      int
	duration  string
	drain     string
	token     string
	json      bool
}

func newNetProbeCmd() *cobra.Command {
	var f netProbeFlags
	c := &cobra.Command{
		Use:   "probe SERVER[:PORT]",
		Short: "Probe the path to a 'leolab net serve' host",
		Long: `Run one constant-bit-rate UDP probe between this host and SERVER (port 5301
unless given): --direction down has the server send (the downlink, through
the NAT this host's hellos opened), up has this host send. Prints the
flow's summary, or with --json the result (engine "net", every packet's
send time and one-way delay on the sender's clock) for 'leolab probe'.
Defaults: 8 Mbit/s of 1000-byte packets for 60 s — one packet per ms, far
below Starlink's base allocations (~100 Mbit/s down, ~30 up; seed 001),
enough for the prober to see the 1.33 ms frame and every outage.`,
		Example: `  leolab net probe vm.example.org --json > dl.json && leolab probe dl.json
  leolab net probe vm.example.org:6000 --direction up --duration 120s --json > ul.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runNetProbe(cmd, args[0], &f) },
	}
	c.Flags().StringVar(&f.direction, "direction", "down", "who sends: down (server → here) or up (here → server)")
	c.Flags().StringVar(&f.rate, "rate", "8Mbps", "IP-level probe rate")
	c.Flags().IntVar(&f.size, "size", 1000, "IP packet size in bytes (44–1500)")
	c.Flags().StringVar(&f.duration, "duration", "60s", "how long the sender sends (at most 1h)")
	c.Flags().StringVar(&f.drain, "drain", "1s", "how long the receiver listens after the sender is done")
	c.Flags().StringVar(&f.token, "token", "", "the server's shared `secret`, if it has one (default $"+tokenEnv+")")
	c.Flags().BoolVar(&f.json, "json", false, "print the result as JSON")
	return c
}

func runNetProbe(cmd *cobra.Command, server string, f *netProbeFlags) error {
	spec := field.Spec{Server: server, Direction: field.Direction(f.direction), Size: f.size, Token: f.token}
	if spec.Token == "" {
		spec.Token = os.Getenv(tokenEnv)
	}
	var err error
	if spec.Direction != field.Down && spec.Direction != field.Up {
		return badInput("net probe: --direction %q: want down or up", f.direction)
	}
	if spec.RateBps, err = profile.ParseRate(f.rate); err != nil {
		return badInput("net probe: --rate: %v", err)
	}
	if spec.Duration, err = profile.ParseDuration(f.duration); err != nil {
		return badInput("net probe: --duration: %v", err)
	}
	if spec.Drain, err = profile.ParseDuration(f.drain); err != nil {
		return badInput("net probe: --drain: %v", err)
	}
	if f.size < 44 || f.size > 1500 {
		return badInput("net probe: --size %d: want 44–1500 bytes (IP + UDP headers and the 16-byte stamp, up to the MTU)", f.size)
	}
	if err := spec.Validate(); err != nil {
		return badInput("net probe: %v", err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(cmd.ErrOrStderr(), "leolab net probe: %s, %s of %d-byte packets for %v...\n", f.direction, f.rate, f.size, spec.Duration)
	res, err := field.Probe(ctx, spec)
	if err != nil {
		if ctx.Err() != nil && cmd.Context().Err() == nil {
			return errInterrupted
		}
		return fmt.Errorf("net probe: %w", err)
	}
	res.Version = versionString()
	if f.json {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printResult(cmd.OutOrStdout(), res)
	return nil
}
