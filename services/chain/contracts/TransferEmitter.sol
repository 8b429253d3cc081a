// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// Emits ERC-20 Transfer events in bulk, for benchmarks that decode many logs.
contract TransferEmitter {
    event Transfer(address indexed from, address indexed to, uint256 value);

    function emitTransfers(uint256 start, uint256 count) external {
        for (uint256 i = start; i < start + count; i++) {
            emit Transfer(msg.sender, address(uint160(0x1000 + i)), i);
        }
    }
}
