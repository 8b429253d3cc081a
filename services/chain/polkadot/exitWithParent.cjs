// Preloaded into the chopsticks process (node --require): it exits when the process that started it is gone, even one
// killed with SIGKILL, which could not stop it. Node has no parent-death signal; a changed ppid says the parent died.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.exit(0)
}, 500).unref()
