"""Test support: a local job site (honest and hostile application pages) that counts every send."""
