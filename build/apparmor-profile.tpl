# AppArmor profile the deb installs as /etc/apparmor.d/${executable} (electron-builder's after-install script, when
# the system's AppArmor understands it). Ubuntu 23.10+ lets only programs with a profile create the unprivileged
# user namespaces Electron's sandbox runs in (electron/electron#41066): this profile allows exactly that for the
# installed binary and confines nothing else, so the sandbox stays on.
abi <abi/4.0>,
include <tunables/global>

profile ${executable} "/opt/${sanitizedProductName}/${executable}" flags=(unconfined) {
  userns,

  # Site-specific additions and overrides. See local/README for details.
  include if exists <local/${executable}>
}
