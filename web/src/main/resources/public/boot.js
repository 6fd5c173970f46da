// Starts the TeaVM-compiled app; a separate file because the CSP forbids inline scripts.
main();
