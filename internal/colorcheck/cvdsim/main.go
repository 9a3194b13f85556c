package main

import (
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"

	"bufferlab/internal/colorcheck"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("cvdsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vision := fs.String("vision", "deuteranopia", "protanopia or deuteranopia")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cvdsim [-vision protanopia|deuteranopia] in.png out.png")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var v colorcheck.Vision
	switch *vision {
	case "protanopia":
		v = colorcheck.Protanopia
	case "deuteranopia":
		v = colorcheck.Deuteranopia
	default:
		fmt.Fprintf(stderr, "cvdsim: -vision %q: want protanopia or deuteranopia\n", *vision)
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	if err := convert(v, fs.Arg(0), fs.Arg(1)); err != nil {
		fmt.Fprintf(stderr, "cvdsim: %v\n", err)
		return 1
	}
	return 0
}

// convert reads the PNG in, simulates v over it and writes the PNG out.
func convert(v colorcheck.Vision, in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(w, colorcheck.SimulateImage(v, img)); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
