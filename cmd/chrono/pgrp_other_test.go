//go:build !unix

package main

// ownGroup: no process groups here (see pgrp_unix_test.go).
func ownGroup() int { return -1 }
