package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/sched"
	"github.com/leolab/leolab/profile"
	"github.com/spf13/cobra"
)

// serverStartup is how long shell waits after starting --server before the
// client command, so a server such as `iperf3 -s` is listening.
const serverStartup = 300 * time.Millisecond

type shellFlags struct {
	link    linkFlags
	server  string
	profile string
	city    string
	seed    uint64
	shared  bool
}

func newShellCmd() *cobra.Command {
	var f shellFlags
	c := &cobra.Command{
		Use:   "shell [link flags | --profile starlink --city C] [--server CMD] -- CMD [ARGS...]",
		Short: "Run a program in the client namespace of a live emulated link (root)",
		Long: `Run CMD in the client (terminal-side) namespace of a live emulated link; the
server namespace is reachable at ` + emu.ServerIP + ` (also in $LEOLAB_SERVER; the
client is ` + emu.ClientIP + `). --server CMD runs a shell command in the server
namespace first and stops it when CMD exits. CMD's stdin, stdout and stderr
are the terminal's; the pump's figures go to stderr at the end. Needs root.
Unless --shared, both programs run off the pump's CPU at nice -20 (the
emulator's own priority while it runs).

The path is a fixed link (the link flags) or, with --profile starlink, the
Starlink access link of --city (its terrestrial leg on the server side),
with reconfigurations at the real UTC seconds :12, :27, :42 and :57.

The namespaces start with the host's TCP settings (tcp_wmem, tcp_rmem, the
default congestion control), unlike emu -f, which sets the send buffer to
the scenario's; change them inside, e.g.
--server 'sysctl -w net.ipv4.tcp_wmem="4096 16384 16777216"; iperf3 -s -1'.`,
		Example: `  leolab shell --server 'iperf3 -s -1' -- iperf3 -c ` + emu.ServerIP + ` -J -t 5
  leolab shell --rate 50Mbps --rtt 80ms -- bash
  leolab shell --profile starlink --city sydney --server 'iperf3 -s -1' -- iperf3 -c ` + emu.ServerIP + ` -R -t 30`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShell(cmd, &f, args)
		},
	}
	f.link.register(c, "downlink")
	fl := c.Flags()
	fl.StringVar(&f.server, "server", "", "shell command to run in the server namespace (e.g. 'iperf3 -s -1')")
	fl.StringVar(&f.profile, "profile", "fixed", "path profile: fixed (the link flags), starlink or starlink-seed001")
	fl.StringVar(&f.city, "city", "", "starlink: the server's city (terrestrial leg; see `leolab profile show`)")
	fl.Uint64Var(&f.seed, "seed", 1, "starlink: seed of the model's random draws")
	fl.BoolVar(&f.shared, "shared", false, sharedUsage)
	return c
}

// config builds the emulated path from the flags.
func (f *shellFlags) config(cmd *cobra.Command) (emu.Config, error) {
	switch f.profile {
	case "fixed":
		if cmd.Flags().Changed("city") {
			return emu.Config{}, badInput("shell: --city needs --profile starlink")
		}
		cfg, _, err := f.link.config("shell")
		return cfg, err
	case profile.NameStarlink, profile.NameStarlinkSeed001:
		for _, n := range []string{"rate", "rtt", "queue", "loss"} {
			if cmd.Flags().Changed(n) {
				return emu.Config{}, badInput("shell: --%s describes a fixed link, not --profile starlink", n)
			}
		}
		p, err := profile.StarlinkNamed(f.profile, f.city, nil)
		if err != nil {
			return emu.Config{}, badInput("shell: %v", err)
		}
		cfg := emu.Config{Epoch: time.Now()}
		cfg.Uplink, cfg.Downlink = emu.StarlinkPath(p, cfg.Epoch, f.seed)
		return cfg, nil
	}
	return emu.Config{}, badInput("shell: --profile %q: want one of %s", f.profile, strings.Join(profile.Names(), ", "))
}

func runShell(cmd *cobra.Command, f *shellFlags, args []string) error {
	cfg, err := f.config(cmd)
	if err != nil {
		return err
	}
	cfg.Shared = f.shared
	cfg.Notice = emuNotice(cmd, "shell")
	if err := netns.Available(); err != nil {
		return fmt.Errorf("shell: %w", err)
	}
	// Signals go to the child (same terminal); we only must not die first.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	e, err := emu.Start(cfg)
	if err != nil {
		return err
	}
	defer e.Close()
	env := append(os.Environ(), "LEOLAB_SERVER="+emu.ServerIP, "LEOLAB_CLIENT="+emu.ClientIP)
	var srv *exec.Cmd
	if f.server != "" {
		srv = netns.Command(e.Server, "sh", "-c", f.server)
		srv.Env, srv.Stdout, srv.Stderr = env, cmd.ErrOrStderr(), cmd.ErrOrStderr()
		// Its own process group, killed whole at the end: sh need not exec
		// the command, and a server that runs until killed (iperf3 -s,
		// leolab net serve) would outlive sh and hold the output pipe, so
		// Wait would never return.
		srv.SysProcAttr.Setpgid = true
		// Both programs keep off the pump's CPU (see emu.Emulator.KeepOff).
		if err := sched.StartAvoiding(srv, e.KeepOff()); err != nil {
			return fmt.Errorf("shell: --server: %w", err)
		}
		time.Sleep(serverStartup)
	}
	cl := netns.Command(e.Client, args...)
	cl.Env, cl.Stdin, cl.Stdout, cl.Stderr = env, os.Stdin, cmd.OutOrStdout(), cmd.ErrOrStderr()
	runErr := sched.StartAvoiding(cl, e.KeepOff())
	if runErr == nil {
		runErr = cl.Wait()
	}
	interrupted := len(sigs) > 0
	if srv != nil {
		_ = syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
		_ = srv.Wait()
	}
	st, cerr := e.Close()
	if st != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "leolab shell: pump %d packets, release error p50 %v p99 %v, kept off its CPU %d times (longest %v), drops %+v / %+v\n",
			st.Packets, st.ReleaseP50, st.ReleaseP99, st.Gaps, st.GapMax, st.Links[0].Drops, st.Links[1].Drops)
	}
	if interrupted {
		return errInterrupted
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		return fmt.Errorf("shell: %s: %v", strings.Join(args, " "), ee)
	}
	if runErr != nil {
		return fmt.Errorf("shell: %w", runErr)
	}
	return cerr
}
