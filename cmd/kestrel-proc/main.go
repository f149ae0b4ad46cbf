// Command kestrel-proc times a command as a whole process, the way the
// whole-process figures of docs/PERFORMANCE.md are taken: it runs the
// command N times, one after the other, and reads each child's wall time
// (from start to exit), CPU time (user + system) and peak RSS from the
// kernel's resource usage of the child. It prints the minimum, median and
// 90th percentile of each. The command's own output is discarded.
//
//	kestrel-proc -n 30 -- ./bin/kestrel backtest --strategy technical --csv /tmp/hourly-50k.csv
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kestrel-proc:", err)
		os.Exit(2)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("kestrel-proc", flag.ContinueOnError)
	n := fs.Int("n", 20, "runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cmd := fs.Args()
	if len(cmd) == 0 || *n < 1 {
		return fmt.Errorf("usage: kestrel-proc [-n runs] -- command [args...]")
	}
	var wall, cpu, rss []float64 // ms, ms, MiB
	for range *n {
		c := exec.Command(cmd[0], cmd[1:]...)
		start := time.Now()
		if err := c.Run(); err != nil {
			return fmt.Errorf("%v: %w", cmd, err)
		}
		wall = append(wall, float64(time.Since(start).Microseconds())/1000)
		ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			return fmt.Errorf("no resource usage on this system")
		}
		cpu = append(cpu, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
		rss = append(rss, float64(ru.Maxrss)/1024) // Linux reports KiB
	}
	fmt.Fprintf(out, "%d runs of %v\n", *n, cmd)
	for _, m := range []struct {
		name, unit string
		v          []float64
	}{{"wall", "ms", wall}, {"cpu", "ms", cpu}, {"peak RSS", "MiB", rss}} {
		lo, med, p90 := summary(m.v)
		fmt.Fprintf(out, "%-8s min %.1f %s, median %.1f %s, p90 %.1f %s\n", m.name, lo, m.unit, med, m.unit, p90, m.unit)
	}
	return nil
}

// summary is the minimum, median and 90th percentile (nearest rank) of v.
func summary(v []float64) (lo, med, p90 float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	rank := func(p float64) float64 {
		i := int(p*float64(len(s))+0.5) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	if len(s)%2 == 1 {
		med = s[len(s)/2]
	} else {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[0], med, rank(0.9)
}
