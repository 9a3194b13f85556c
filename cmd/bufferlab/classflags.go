package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
)

// defaultMaxStudents is --max-students's default (docs/classroom.md).
const defaultMaxStudents = 500

// classOpts are serve's classroom flags (docs/classroom.md).
type classOpts struct {
	on, lan, names bool
	max            int
	save           string
}

func addClassFlags(fs *flag.FlagSet) *classOpts {
	o := &classOpts{}
	fs.BoolVar(&o.on, "classroom", false, "run a class: one teacher drives a lesson, students follow and answer on their own devices (docs/classroom.md)")
	fs.BoolVar(&o.lan, "lan", false, "classroom: listen on this machine's local-network address (not only 127.0.0.1), so that students' devices can join")
	fs.IntVar(&o.max, "max-students", defaultMaxStudents, "classroom: the most students that may join, 1..5000")
	fs.StringVar(&o.save, "save", "", "classroom: write the answer counts per question and round to `FILE` (CSV) when the server stops")
	fs.BoolVar(&o.names, "save-names", false, "classroom: also write each student's answers by nickname to the --save file (say so to the class)")
	return o
}

// check says what is wrong with the flags together, or nil.
func (o *classOpts) check() error {
	switch {
	case !o.on && (o.lan || o.save != "" || o.names || o.max != defaultMaxStudents):
		return errors.New("--lan, --max-students, --save and --save-names are classroom flags: add --classroom")
	case o.max < 1 || o.max > 5000:
		return fmt.Errorf("--max-students %d: expected 1..5000", o.max)
	case o.names && o.save == "":
		return errors.New("--save-names: expected --save FILE too (where the answers go)")
	}
	if o.save != "" {
		if st, err := os.Stat(filepath.Dir(o.save)); err != nil || !st.IsDir() {
			return fmt.Errorf("--save %s: the folder %s does not exist", o.save, filepath.Dir(o.save))
		}
	}
	return nil
}

// lanIP is the address students' devices reach this machine at: the
// first IPv4 address of an interface that is up and not the loopback,
// preferring private ones (a classroom's network).
func lanIP(ifaces []ifaceAddrs) (net.IP, error) {
	var public net.IP
	for _, ifc := range ifaces {
		for _, ip := range ifc.IPs {
			ip4 := ip.To4()
			if ip4 == nil || ip4.IsLoopback() || ip4.IsLinkLocalUnicast() {
				continue
			}
			if ip4.IsPrivate() {
				return ip4, nil
			}
			if public == nil {
				public = ip4
			}
		}
	}
	if public == nil {
		return nil, errors.New("--lan: this machine has no network address but the loopback (is it on the classroom's network?)")
	}
	return public, nil
}
